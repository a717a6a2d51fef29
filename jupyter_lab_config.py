"""JupyterLab for the lessons, as `make lab` starts it: loopback only, opened at
Start here, and nothing fetched from the internet (no news, no update check, no
extension listing from the package index)."""

c = get_config()  # noqa: F821 (provided by Jupyter when it loads this file)

c.ServerApp.ip = "127.0.0.1"
c.ServerApp.open_browser = False
c.ServerApp.port_retries = 0
c.LabApp.default_url = "/lab/tree/notebooks/00_start_here.ipynb"
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
c.LabApp.extension_manager = "readonly"
