"""Python side of the Pathshala course site: build-time plugin (``build``) and browser runtime (``runtime``)."""
