# SPDX-License-Identifier: GPL-2.0
"""The documents bench writes (compare.json, torture.json, soak.json)
carry a schema name and version; reading one back checks both."""

import json


def load(path, schema, version, tool):
    """The document at path; SystemExit naming the tool when it is not a
    `schema` document of this version (or not JSON at all)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit("%s: %s: %s" % (tool, path, e))
    if not isinstance(doc, dict) or doc.get("schema") != schema or \
            doc.get("schema_version") != version:
        raise SystemExit("%s: %s is not a %s version %d document" % (
            tool, path, schema, version))
    return doc
