module example.com/handlerrecv

go 1.26
