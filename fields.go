package palaro

// Form field names shared by the purchase payload, the account forms and validation errors' Fields.
const (
	FieldEmail        = "email"
	FieldFirstName    = "firstName"
	FieldLastName     = "lastName"
	FieldMobileNumber = "mobileNumber"
	FieldBirthDate    = "birthDate"
	FieldAge          = "age"
	FieldCompanyName  = "companyName"
	FieldDesignation  = "designation"
)
