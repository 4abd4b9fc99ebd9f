module example.com/ownedwriter

// An old language version: the marks must compile where a file cannot call
// a generic function.
go 1.16
