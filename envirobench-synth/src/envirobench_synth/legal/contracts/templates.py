"""The contract templates (law firms' families, split between dev and test), scopes, exclusions,
forms, execution scenarios and the parties drawn from.
"""

from __future__ import annotations

import datetime as dt

from ...named import by_name
from ..families import Template

SCOPES = ("scheduled-matters-only", "breach-of-representations", "pre-closing-conditions", "all-environmental-liabilities")
EXCLUSIONS = ("buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy")
FORMS = ("purchase-and-sale", "indemnity-agreement")
# The instrument scenarios a contract may show, and whether each is an executed contract here: a
# conformed copy records that the parties signed (a closing set), so its terms bind.
EXECUTED = {
    "unrecorded": True,
    "conformed-unrecorded": True,
    "recorded": True,
    "draft-marker": False,
    "bracketed-blanks": False,
    "execution-version-unsigned": False,
    "covenant-missing-signature": False,
}
LATEST_AS_OF = dt.date(2026, 10, 31)


def _template(name: str, font: str, size: float, line: str, label: str, witness: str, blank: str, footer: str,
              prepared: str) -> Template:
    return Template(
        name, font, size, line, label, witness, blank,
        "This instrument was acknowledged before me on {date} by {signer}, as {capacity}.",
        "This instrument was acknowledged before me on ______________ by ____________________, as ______________.",
        "Notary Public", "My commission expires:", footer, False, prepared,
    )


CONTRACT_TEMPLATES: tuple[Template, ...] = (
    _template("ashcombe-vries", "Times", 10.0, "rule", "By:",
              "IN WITNESS WHEREOF, the parties have executed this Agreement as of {date}.",
              "IN WITNESS WHEREOF, the parties have executed this Agreement as of ____________, 20__.",
              "Page {page} of {pages}", "Ashcombe & Vries LLP - Real Estate Group"),
    _template("tillman-oduya", "Helvetica", 9.0, "underscore", "Authorized Signature",
              "EXECUTED by the parties on {date}.",
              "EXECUTED by the parties on the ___ day of __________, 20__.",
              "", "Tillman Oduya PLLC"),
    _template("fairlie-brandt", "Courier", 10.0, "underscore", "Name:",
              "Signed as of {date}.",
              "Signed as of [__________], 20[__].",
              "- {page} -", "FAIRLIE BRANDT LLP"),
    _template("corvino-haight", "Times", 10.5, "rule", "Its:",
              "WITNESS the execution hereof by the parties as of {date}.",
              "WITNESS the execution hereof by the parties as of the ____ day of ____________, 20__.",
              "{page}", "Corvino Haight, P.C."),
    _template("lindgren-moss", "Helvetica", 9.5, "rule", "Signed:",
              "The parties have caused this Agreement to be duly executed effective {date}.",
              "The parties have caused this Agreement to be duly executed effective ______________, 20__.",
              "Page {page}", "Lindgren Moss Real Estate Counsel"),
    _template("ruiz-abernethy", "Courier", 10.0, "rule", "Title:",
              "AGREED AND EXECUTED on {date}.",
              "AGREED AND EXECUTED on the ___ day of ___________, 20__.",
              "[{page}/{pages}]", "Ruiz Abernethy & Partners"),
)
DEV_CONTRACT_TEMPLATES = ("ashcombe-vries", "tillman-oduya", "fairlie-brandt")
TEST_CONTRACT_TEMPLATES = ("corvino-haight", "lindgren-moss", "ruiz-abernethy")
CONTRACT_SPLITS = {"dev": DEV_CONTRACT_TEMPLATES, "test": TEST_CONTRACT_TEMPLATES}
# How each template numbers the agreement's parts: "article" (ARTICLE 8 / Section 8.1) or
# "section" (Section 8 / Section 8(a)).
NUMBERING = {"ashcombe-vries": "article", "tillman-oduya": "section", "fairlie-brandt": "article",
             "corvino-haight": "section", "lindgren-moss": "article", "ruiz-abernethy": "section"}


def contract_template(name: str) -> Template:
    return by_name(CONTRACT_TEMPLATES, name, "contract template")


SELLERS = ("Redfern Petroleum Company", "Northgate Fuel Distributors, Inc.", "Cedar Point Terminals, Inc.",
           "Sutter Row Cleaners, Inc.", "Ironwood Rail Services Company", "Granite Ridge Development Corp.",
           "Old Mill Realty Trust", "Tamarack Plating Works, Inc.", "Bluewater Marine Fuels, L.L.C.",
           "Halsey Chemical Distribution Co.", "Prairie Line Grain & Feed LLC", "Eastbank Industrial Partners, L.P.")
BUYERS = ("Blue Heron Holdings, LLC", "Kestrel Land Partners LP", "Willowbank Properties LLC", "Harbor Lane Investors LLC",
          "Mesa Verde Storage LLC", "Alderbrook Acquisitions, LLC", "Fernleaf Logistics Parks, Inc.",
          "Quarry Street Ventures LLC", "Stonecrest Retail Fund II, L.P.", "Larkfield Housing Partners LLC")
PARENT_SUFFIXES = ("Holdings, Inc.", "Group, Inc.", "Enterprises Corp.")
CONSULTANTS = ("Terracon Environmental Associates", "Brightwater Geosciences, Inc.", "Kellerman Site Services LLC")
STATES = ("Delaware", "Oregon", "Washington", "Colorado", "Kentucky", "Wisconsin", "Florida", "Texas")
ENTITY_KINDS = {"LLC": "limited liability company", "L.L.C.": "limited liability company", "Inc.": "corporation",
                "Corp.": "corporation", "Company": "corporation", "Co.": "corporation", "L.P.": "limited partnership",
                "LP": "limited partnership", "Trust": "business trust"}

# Defined terms for the parties: (seller, buyer) in a purchase agreement, (indemnitor, indemnitee)
# in a stand-alone agreement.
ROLE_TERMS = {
    "dev": {"purchase-and-sale": (("Seller", "Buyer"),), "indemnity-agreement": (("Indemnitor", "Indemnitee"),)},
    "test": {"purchase-and-sale": (("Vendor", "Purchaser"), ("Seller", "Purchaser")),
             "indemnity-agreement": (("Indemnitor", "Indemnified Party"),)},
}
TITLES = {
    "dev": {"purchase-and-sale": ("PURCHASE AND SALE AGREEMENT", "AGREEMENT OF PURCHASE AND SALE"),
            "indemnity-agreement": ("ENVIRONMENTAL INDEMNITY AGREEMENT",)},
    "test": {"purchase-and-sale": ("REAL ESTATE PURCHASE AGREEMENT", "CONTRACT OF SALE"),
             "indemnity-agreement": ("ENVIRONMENTAL INDEMNIFICATION AGREEMENT", "AGREEMENT OF ENVIRONMENTAL INDEMNITY")},
}
