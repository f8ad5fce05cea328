"""The files varroom reads and writes: situation JSON both ways (docs/formats/)."""
