"""The server (toolform.server) around every route: errors, Host names and limits, faults, hostile requests, the
HTTP protocol, the body readers and writers, the answers' recorded bytes, /openapi.json; in process or through
a real `toolform serve`. One route group's answers are in routes/.
"""
