module example.com/escapedfuncs

go 1.26
