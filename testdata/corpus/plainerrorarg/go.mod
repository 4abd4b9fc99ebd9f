module example.com/plainerrorarg

go 1.26
