//go:build !generics

package main

func generic() {}
