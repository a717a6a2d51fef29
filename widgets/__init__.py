"""widgets: the ipywidgets views of the Rummy teaching kit.

Each view holds an engine state from :mod:`rummy` and renders only what its
player may see (``state.observe(player)``); no game rule lives here.
"""
