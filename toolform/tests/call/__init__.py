"""The call loop (toolform.call): Python tools in process and Flow Tools through the host client, against the
scripted endpoint.
"""
