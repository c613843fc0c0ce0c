"""The benches: speed and memory, measured (never asserted in tests), one module per bench.

``warscribe bench TARGET`` runs ``run_bench(args)`` of one module: ``build`` (build, site,
check), ``ledger`` (diff), ``engine`` (``peer`` with ``--peer``), ``matrix``, ``battlescribe``,
``hostile``, ``roster``. ``timing`` and ``measure`` are how they all time a call or a command;
``site`` also holds the browser and file-server helpers the site's tests share.
"""
