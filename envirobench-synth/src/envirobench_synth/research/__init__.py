"""Seeded property records and questions for the Research category (issue 18).

`records` draws a property's record (a set of PDFs with the facts each page states), `questions`
the questions about it with their typed answers or "not in the record".
"""
