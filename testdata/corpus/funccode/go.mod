module example.com/funccode

go 1.26
