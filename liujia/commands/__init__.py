"""Sub-commands of ``liujia``: each module defines ``add_parser(subparsers)`` and ``run(args)``."""
