"""EnviroBench category Research: answering questions about a property from its records, with the evidence cited, and saying when the records do not tell."""
