"""Executors: where the runner's independent jobs run (in this process, in a pool of worker
processes, or on a cluster). The contract is :class:`evalfw.executors.base.Executor`; the
built-ins are ``serial`` and ``processes``, and ``dask`` with ``pip install 'evalfw[dask]'``."""
