"""The advisor (toolform.advisor): the reference's advisor fixtures, model resolution, local evidence in use."""
