"""EnviroBench category Extract: numbers out of laboratory reports."""
