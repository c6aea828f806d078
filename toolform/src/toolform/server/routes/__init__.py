"""The API's routes, one module per tag of the reference's route table."""
