"""A season of matches: a manifest of matches, audited one match per unit of work on a local
process pool or a Dask cluster, the results kept in Parquet, and the consistency report.

Needs the `season` extra (pyarrow; dask[distributed] for `--scheduler`)."""
