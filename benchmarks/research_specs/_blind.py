"""What the Research blind baselines guess without reading a record (shared by the specs of
missing-information and cited-answers)."""

# A plausible value of each declared type, the same for every question (never reads the record).
GUESS = {
    "date": "2010-01-01",
    "name": "Acme Environmental Services",  # a name ("unknown" is a declared abstention since v2)
    "instrument": "0",
    "yes-no": "yes",
    "list": "petroleum hydrocarbons",
}
GUESS_QUANTITY = {"ft": "30 ft", "gal": "4000 gal", "ug/L": "10 ug/L", "USD": "5000 USD"}


def typed_guess(question):
    """A plausible value of the question's declared type, the same for every question."""
    if question.answer_type == "quantity":
        return GUESS_QUANTITY[question.unit]
    return GUESS[question.answer_type]
