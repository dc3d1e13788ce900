"""weatherkit: weather reports with a local cache."""
