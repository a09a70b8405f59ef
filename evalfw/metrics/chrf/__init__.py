"""chrF and chrF++ (sacreBLEU 2.6.0 bit for bit), the built-in ``chrf`` metric."""
