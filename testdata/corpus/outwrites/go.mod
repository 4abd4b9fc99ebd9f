module example.com/outwrites

go 1.26
