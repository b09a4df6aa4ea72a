"""Verifying an archive on a Dask cluster (``dominolog verify --dask``): one task a file, the reports
coming back in the files' order, the same as a single process gives.

Importing this package does not import Dask: :func:`dask_client` does, and raises
:class:`DaskUnavailable` when it is not installed (``pip install 'dominolog[dask]'``).

    from dominolog.distributed import dask_client, verify_files

    with dask_client("tcp://scheduler:8786") as client:  # or "local:4": 4 processes on this machine
        for path, reports in verify_files(client, files):
            ...  # reports: [(MatchReport, None), ...] for the matches of that file, in its order
"""

from __future__ import annotations

from dominolog.distributed.cluster import ClusterError, DaskUnavailable, dask_client, parse_target
from dominolog.distributed.files import verify_files

__all__ = ["ClusterError", "DaskUnavailable", "dask_client", "parse_target", "verify_files"]
