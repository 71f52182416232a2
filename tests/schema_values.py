"""Values that fit a JSON schema: moved to :mod:`helpers.model.schema_values` (the loopback server
in ``helpers`` uses them); the tests keep importing them from here."""

from helpers.model.schema_values import arguments_for, string_for_pattern, value_for

__all__ = ["arguments_for", "string_for_pattern", "value_for"]
