module example.com/redact

go 1.26
