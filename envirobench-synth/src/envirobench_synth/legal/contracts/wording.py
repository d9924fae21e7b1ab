"""The drafting styles of each term (`WORDING[term][split]`) and the words of numbers, money and
dates they print with.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random

WORDING: dict[str, dict[str, tuple[str, ...]]] = {
    "lead": {
        "dev": ("{I} shall indemnify, defend and hold harmless {E} from and against any and all {L} {scope}.",
                "{I} hereby agrees to indemnify and hold {E} harmless from all {L} {scope}."),
        "test": ("{I} shall protect, defend, indemnify and save harmless {E} and its affiliates from and against all {L} {scope}.",
                 "{E} shall be indemnified and held harmless by {I} against any and all {L} {scope}."),
    },
    "pre-closing-conditions": {
        "dev": ("arising from the presence of any Hazardous Substances at, on or under the Property prior to the Closing Date",
                "arising out of any environmental condition of the Property existing on or before the Closing, whether "
                "discovered before or after the Closing"),
        "test": ("to the extent attributable to any Release of Hazardous Substances at the Property that occurred before the Closing",
                 "resulting from environmental conditions first existing during {I}'s ownership of the Property and prior to "
                 "the Closing Date"),
    },
    "scheduled-matters-only": {
        "dev": ("arising from the environmental conditions described on {sched} (the \"Scheduled Matters\"), and from no other "
                "environmental condition",
                "arising from the Scheduled Environmental Matters listed in {sched}, and only those matters"),
        "test": ("solely to the extent arising from the Identified Conditions set forth in {sched}; {I} has no obligation "
                 "hereunder for any other condition",
                 "in respect of the Disclosed Contamination identified in {sched} and no other matter"),
    },
    "breach-of-representations": {
        "dev": ("arising from any breach of or inaccuracy in the environmental representations and warranties of {I} set forth "
                "in {rep}",
                "by reason of any representation of {I} in {rep} (Environmental Matters) being untrue"),
        "test": ("resulting from any misrepresentation in, or breach of, the environmental warranties of {I} contained in {rep}",
                 "to the extent caused by the inaccuracy, when made, of any statement of {I} in {rep}"),
    },
    "all-environmental-liabilities": {
        "dev": ("arising under Environmental Laws with respect to the Property, whether arising or existing before or after "
                "the Closing",
                "relating to any Hazardous Substances at, on, under or migrating from the Property, regardless of when such "
                "condition arose"),
        "test": ("in any way relating to the environmental condition of the Property, whenever arising",
                 "arising under any Environmental Law in connection with the Property, whether the condition existed prior "
                 "to, on or after the Closing Date"),
    },
    "narrowing": {
        "dev": ("Notwithstanding anything to the contrary in {sec}, the obligations of {I} under {sec} shall be limited to {narrow}.",),
        "test": ("{sec} notwithstanding, {I} shall have liability thereunder solely for {narrow}.",),
    },
    "narrow-scheduled-matters-only": {
        "dev": ("the Scheduled Matters described in {sched}",),
        "test": ("the conditions identified in {sched}",),
    },
    "narrow-breach-of-representations": {
        "dev": ("{L} resulting from a breach of the representations and warranties of {I} in {rep}",),
        "test": ("{L} caused by an untrue warranty of {I} in {rep}",),
    },
    "narrow-pre-closing-conditions": {
        "dev": ("conditions existing at the Property on or before the Closing Date",),
        "test": ("contamination present at the Property as of the Closing",),
    },
    "cap": {
        "dev": ("In no event shall the aggregate liability of {I} under {sec} exceed {amount}.",
                "The total liability of {I} under {sec} shall be limited to {amount} in the aggregate."),
        "test": ("The maximum aggregate amount payable by {I} under {sec} is {amount}.",
                 "The obligations of {I} under {sec} are capped at {amount} in the aggregate."),
    },
    "cap-percent": {
        "dev": ("In no event shall the aggregate liability of {I} under {sec} exceed an amount equal to {pct_words} percent "
                "({pct}%) of the Purchase Price.",),
        "test": ("The aggregate liability of {I} under {sec} shall be capped at {pct}% of the Purchase Price.",),
    },
    "cap-defined": {
        "dev": ("In no event shall the aggregate liability of {I} under {sec} exceed the Environmental Cap (as defined in "
                "Section 1.1).",),
        "test": ("Amounts payable by {I} under {sec} shall not in the aggregate exceed the Indemnity Ceiling (as defined in "
                 "Section 1.1).",),
    },
    "cap-definition": {
        "dev": ("\"Environmental Cap\" means {amount}.",),
        "test": ("\"Indemnity Ceiling\" means the sum of {amount}.",),
    },
    "uncapped": {
        "dev": ("The obligations of {I} under {sec} are not subject to any limitation as to amount.",),
        "test": ("No monetary limit applies to the liability of {I} under {sec}.",),
    },
    "deductible": {
        "dev": ("{I} shall have no liability under {sec} until the aggregate amount of {L} thereunder exceeds {amount}, and "
                "then only for the amount of {L} in excess of {amount}.",
                "{I} shall be liable under {sec} only to the extent the aggregate {L} exceed {amount} (the \"Deductible\"), "
                "and only for such excess."),
        "test": ("{E} shall bear the first {amount} of {L}, and the obligations of {I} under {sec} shall apply only to {L} "
                 "in excess thereof.",
                 "No amount is payable under {sec} except to the extent that the aggregate of all {L} exceeds {amount}, in "
                 "which case only the excess is recoverable."),
    },
    "tipping": {
        "dev": ("{I} shall have no liability under {sec} until the aggregate amount of {L} thereunder exceeds {amount}, "
                "whereupon {I} shall be liable for all such {L} from the first dollar.",
                "Once the aggregate {L} exceed {amount} (the \"Threshold\"), {I} shall be liable for the full amount of all "
                "{L}, and not merely the excess."),
        "test": ("If the aggregate of all {L} exceeds {amount}, {I} shall be responsible for the entire amount thereof, "
                 "including the first {amount}.",
                 "{I} is not required to make any payment under {sec} unless the aggregate of {L} exceeds {amount}, in "
                 "which event {I} shall pay all {L} back to the first dollar."),
    },
    "basket-defined": {
        "dev": ("{I} shall have no liability under {sec} until the aggregate amount of {L} thereunder exceeds the Basket "
                "Amount (as defined in Section 1.1), {tail}.",),
        "test": ("No payment is due under {sec} until the aggregate {L} exceed the Threshold Amount (as defined in Section "
                 "1.1), {tail}.",),
    },
    "basket-tail-deductible": {
        "dev": ("and then only for the amount of {L} in excess of the Basket Amount",),
        "test": ("and then only for the excess over the Threshold Amount",),
    },
    "basket-tail-tipping": {
        "dev": ("whereupon {I} shall be liable for all such {L} from the first dollar",),
        "test": ("whereupon all {L}, including the Threshold Amount, shall be payable",),
    },
    "basket-definition": {
        "dev": ("\"Basket Amount\" means {amount}.",),
        "test": ("\"Threshold Amount\" means the sum of {amount}.",),
    },
    "de-minimis": {
        "dev": ("No claim for an individual matter involving {L} of less than {amount} may be asserted under {sec}, and such "
                "claims shall not be counted toward any threshold.",
                "{I} shall not be liable for any single claim of less than {amount} (a \"De Minimis Claim\")."),
        "test": ("Any claim (or series of related claims) for less than {amount} shall be disregarded for all purposes of {sec}.",
                 "Individual items of {L} below {amount} are excluded from recovery hereunder."),
    },
    "survival-months": {
        "dev": ("The obligations of {I} under {sec} shall survive the Closing for a period of {n_words} ({n}) months.",
                "{sec} shall survive the Closing until the date that is {n} months after the Closing Date, and no claim may "
                "be made thereunder after such date."),
        "test": ("Claims under {sec} must be asserted within {n} months following the Closing, after which the obligations of "
                 "{I} thereunder shall terminate.",),
    },
    "survival-years": {
        "dev": ("The obligations of {I} under {sec} shall survive the Closing for a period of {y_words} ({y}) years.",),
        "test": ("The liability of {I} under {sec} shall expire on the {nth} anniversary of the Closing Date.",),
    },
    "survival-unlimited": {
        "dev": ("The obligations of {I} under {sec} shall survive the Closing without limitation as to time.",),
        "test": ("{sec} shall survive the Closing indefinitely and shall not merge into the deed.",),
    },
    "general-survival": {
        "dev": ("Except as otherwise expressly provided in this Agreement, the representations, warranties and indemnities of "
                "the parties shall survive the Closing for {n_words} ({n}) months.",),
        "test": ("Save as otherwise provided herein, all representations, warranties and indemnities herein survive Closing "
                 "for {n} months only.",),
    },
    "override-survival": {
        "dev": ("Notwithstanding {general}, ",),
        "test": ("{general} notwithstanding, ",),
    },
    "other-survival": {
        "dev": ("The provisions of {other} shall survive the Closing for a period of {n_words} ({n}) months.",),
        "test": ("The covenants in {other} survive Closing for {n} months.",),
    },
    "buyer-initiated-testing": {
        "dev": ("{I} shall have no obligation under {sec} with respect to any condition first discovered as a result of a "
                "Phase II environmental site assessment or other invasive testing of the Property initiated by {E} after "
                "the Closing, unless such testing is required by Environmental Law or a Governmental Authority.",),
        "test": ("Excluded from the obligations of {I} are {L} arising from any sampling, drilling or other intrusive "
                 "investigation of the Property undertaken by or at the request of {E}, except as compelled by a "
                 "governmental agency.",),
    },
    "change-to-residential-use": {
        "dev": ("{I} shall have no liability for {L} to the extent resulting from a change in the use of the Property to "
                "residential use.",),
        "test": ("{I} shall not be responsible for any {L} that would not have been incurred but for the conversion of the "
                 "Property to residential, school, day-care or other sensitive use.",),
    },
    "late-notice": {
        "dev": ("{E} shall give {I} written notice of any claim under {sec} within {days} days after {E} first becomes aware "
                "of it, and {I} shall have no liability for any claim of which notice is not given within such period.",),
        "test": ("No claim may be made under {sec} unless {E} delivers a written claim notice on or before the {days}th day "
                 "following its discovery of the matter; a claim not so noticed is waived.",),
    },
    "risk-based-remedy": {
        "dev": ("{I} shall have the right to control any Remediation and to select the remedy, and may achieve risk-based "
                "cleanup standards applicable to commercial or industrial property through institutional controls and "
                "engineering controls; {I} shall have no liability for the cost of achieving any more stringent standard.",),
        "test": ("Any Remedial Work shall be performed to the least stringent standards permitted by the Governmental "
                 "Authority for non-residential property, including by means of deed restrictions, and {I} shall select "
                 "the method of Remedial Work in its sole discretion.",),
    },
    "benign-notice": {
        "dev": ("{E} shall promptly notify {I} of any claim under {sec}; provided that the failure to give such notice shall "
                "not relieve {I} of its obligations except to the extent {I} is materially prejudiced thereby.",),
        "test": ("A delay by {E} in giving notice of a claim shall not release {I} from its obligations hereunder, except to "
                 "the extent of actual prejudice.",),
    },
    "rep-cap": {
        "dev": ("The aggregate liability of {S} for breaches of its representations and warranties in {reps} shall not "
                "exceed {amount}; provided, however, that this limitation shall not apply to the obligations of {S} under "
                "{art}.",),
        "test": ("The limitation in this Section on claims for breach of warranty shall not limit or apply to the indemnity in "
                 "{art}; claims for breach of warranty shall not exceed {amount} in the aggregate.",),
    },
    "losses": {"dev": ("Losses",), "test": ("Environmental Costs", "Claims")},
}
# The losses word of each lead: a passive or "protect" lead in test uses its own.


def words(n: int) -> str:
    """A whole number in words, as a contract spells it ("two hundred fifty thousand")."""
    ones = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
    tens = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
    if n < 20:
        return ones[n]
    if n < 100:
        return tens[n // 10] + ("" if n % 10 == 0 else "-" + ones[n % 10])
    if n < 1000:
        return ones[n // 100] + " hundred" + ("" if n % 100 == 0 else " " + words(n % 100))
    for size, name in ((1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand")):
        if n >= size:
            return words(n // size) + f" {name}" + ("" if n % size == 0 else " " + words(n % size))
    raise AssertionError(n)


def ordinal_word(n: int) -> str:
    return ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")[n - 1]


def money(rng: random.Random, amount: int, split: str) -> str:
    """$250,000, or the amount in words with the figure, as drafters write it."""
    figure = f"${amount:,}"
    if rng.random() < 0.4:
        spelled = words(amount).title()
        return f"{spelled} Dollars ({figure})" if split == "dev" else f"{spelled} and No/100 Dollars ({figure})"
    return figure


def add_months(day: dt.date, months: int) -> dt.date:
    """`day` plus whole months: the same day of the month, or the last day of a shorter month."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))
