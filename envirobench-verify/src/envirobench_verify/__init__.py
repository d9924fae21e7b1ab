"""EnviroBench category Verify: checking values before anyone relies on them: what may be accepted without review, and what a value's flags, units and limits mean."""
