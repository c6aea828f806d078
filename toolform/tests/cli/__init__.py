"""The `toolform` command run as a person runs it, beside the reference's command where it has the verb."""
