"""The board and deck design lab: the design papers' metrics and searches for any board file,
rules and line-up, with the games played through one executor (in-process, a local Dask
cluster, or an existing Dask scheduler). See ``shared/design/design-lab.md``."""
