"""The built-in TER metric: sacreBLEU 2.6.0's TER, bit for bit, with a compiled kernel."""
