module example.com/lang
