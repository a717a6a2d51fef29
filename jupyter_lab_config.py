"""JupyterLab for the lessons, as `make lab` starts it: loopback only, opened at
Start here, and nothing fetched from the internet (no news, no update check, no
extension listing from the package index), and on the kit's own state: the
layout of open tabs (the workspace) and the settings live in ``.jupyterlab/``
of the kit, not in the user's Jupyter folder, so another JupyterLab on the same
machine can't make this one open some other notebook than Start here."""

import os

c = get_config()  # noqa: F821 (provided by Jupyter when it loads this file)

c.ServerApp.ip = "127.0.0.1"
c.ServerApp.open_browser = False
c.ServerApp.port_retries = 0
c.LabApp.default_url = "/lab/tree/notebooks/00_start_here.ipynb"
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
c.LabApp.extension_manager = "readonly"
_own = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".jupyterlab")
c.LabApp.workspaces_dir = os.path.join(_own, "workspaces")
c.LabApp.user_settings_dir = os.path.join(_own, "user-settings")
