module example.com/errorbind

go 1.26
