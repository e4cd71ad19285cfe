package handlers

// CompleteServices is completeServices for the tests of package handlers_test.
var CompleteServices = completeServices
