# Klaverjas kernels.
