"""``python -m liujia`` runs the command line."""

import sys

from liujia.cli import main

sys.exit(main())
