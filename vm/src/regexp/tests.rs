//! Syntax tests: flags, early errors and their messages, compared with node.
