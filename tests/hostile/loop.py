# An infinite loop in Python.
while True:
    pass
