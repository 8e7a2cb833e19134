# Grows a list of megabyte strings until something stops it.
chunks = []
while True:
    chunks.append(bytearray(1 << 20))
