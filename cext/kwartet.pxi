# Kwartet kernels (card-location counting).
