"""EnviroBench's sealed holdout: a scoring service that keeps answer keys to itself (docs/holdout.md).

Modules: `sealing` (a dataset's public part), `keys` (API keys, stored as salted scrypt hashes),
`store` (the database: SQLite by default, PostgreSQL by URL), `ledger` (the hash chain and its
check), `judge` (checking and scoring a submission with core's code), `ladder` (what is released),
`service` (the Starlette application), `page` (the public leaderboard), `client` (`envirobench
submit`), `demo` (the service's own sealed splits) and `cli` (the commands).
"""

__version__ = "0.2.0"
