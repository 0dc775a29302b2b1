"""The cold path: policy files (and the built-in packs they import) compiled into the plain-data form a
run reads from the cache: the schema, the compiler and its compile_* steps, imports, the problems and
messages `validate` shows."""
