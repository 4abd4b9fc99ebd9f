module example.com/ctxrealize

go 1.26
