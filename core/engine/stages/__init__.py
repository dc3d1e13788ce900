"""The stage calls of both engines: their schemas and validation (``schemas``, planned tasks in
``task_specs``), the caller that forces and accounts for them (``caller``), which model serves
each stage (``roles``) and what streams while a model writes (``progress``)."""
