package palaro

import "fmt"

// QuizOption is one answer to a quiz question. In the persona quiz it counts towards Persona.
type QuizOption struct {
	Text    string
	Persona string
}

// QuizQuestion is a question with its options; in a scored quiz, Answer is the right option's
// index and Explanation says why.
type QuizQuestion struct {
	Text        string
	Options     []QuizOption
	Answer      int
	Explanation string
}

// Persona is a result of the persona quiz.
type Persona struct {
	Code        string
	Name        string
	Description string
	NextSteps   []string
}

// Quiz is one of the partner bank's quizzes: scored (a right answer per question) or a persona quiz.
type Quiz struct {
	Slug      string
	Title     string
	Intro     string
	Scored    bool
	Questions []QuizQuestion
	Personas  []Persona
}

// QuizResult is a graded submission: the persona, or the score with each answer marked.
type QuizResult struct {
	Persona *Persona
	Score   int
	Total   int
	// Correct says, per question, whether the answer given was right (scored quiz).
	Correct []bool
	// Remarks is the line the activity log keeps.
	Remarks string
}

// MsgQuizIncomplete is the message of a quiz submitted with a question unanswered.
const MsgQuizIncomplete = "Please answer every question."

// FindQuiz returns the quiz with a slug (QuizPersona or QuizPower).
func FindQuiz(slug string) (*Quiz, bool) {
	switch slug {
	case QuizPersona:
		return &personaQuiz, true
	case QuizPower:
		return &powerQuiz, true
	}
	return nil, false
}

// Grade grades answers (one option index per question). Returns EINVALID when one is missing or out of range.
func (q *Quiz) Grade(answers []int) (*QuizResult, error) {
	if len(answers) != len(q.Questions) {
		return nil, Errorf(EINVALID, MsgQuizIncomplete)
	}
	for i, a := range answers {
		if a < 0 || a >= len(q.Questions[i].Options) {
			return nil, Errorf(EINVALID, MsgQuizIncomplete)
		}
	}
	res := &QuizResult{Total: len(q.Questions)}
	if q.Scored {
		for i, a := range answers {
			ok := a == q.Questions[i].Answer
			res.Correct = append(res.Correct, ok)
			if ok {
				res.Score++
			}
		}
		res.Remarks = fmt.Sprintf("Score %d/%d", res.Score, res.Total)
		return res, nil
	}
	votes := map[string]int{}
	for i, a := range answers {
		votes[q.Questions[i].Options[a].Persona]++
	}
	// The persona with the most answers; a tie goes to the more careful persona (listed first).
	for i := range q.Personas {
		if res.Persona == nil || votes[q.Personas[i].Code] > votes[res.Persona.Code] {
			res.Persona = &q.Personas[i]
		}
	}
	res.Remarks = "Persona: " + res.Persona.Name
	return res, nil
}

// Persona codes of the persona quiz, from the most careful to the boldest.
const (
	PersonaGuardian = "guardian"
	PersonaBuilder  = "builder"
	PersonaGrower   = "grower"
	PersonaExplorer = "explorer"
)

// options4 builds the four options of a persona question, one per persona in order.
func options4(guardian, builder, grower, explorer string) []QuizOption {
	return []QuizOption{{guardian, PersonaGuardian}, {builder, PersonaBuilder}, {grower, PersonaGrower}, {explorer, PersonaExplorer}}
}

var personaQuiz = Quiz{
	Slug:  QuizPersona,
	Title: "What kind of investor are you?",
	Intro: "Seven quick questions about how you save, what you want your money to do and how you feel when markets move. There are no wrong answers.",
	Questions: []QuizQuestion{
		{Text: "Your investment drops 15% in one month. What do you do?", Options: options4(
			"Sell everything: I can't stand losing money", "Move part of it to something safer",
			"Hold on and wait for it to recover", "Buy more while prices are low")},
		{Text: "What matters most to you when you save?", Options: options4(
			"Never losing what I put in", "Steady, predictable growth",
			"Growth over the years, even with ups and downs", "The highest returns I can get")},
		{Text: "When will you need most of this money?", Options: options4(
			"Within a year", "In one to three years", "In three to seven years", "More than seven years from now")},
		{Text: "How much do you know about investing?", Options: options4(
			"Very little: I keep my money in savings", "I know time deposits and government savings programs",
			"I have tried funds such as UITFs or Pag-IBIG MP2", "I follow the stock market and buy shares")},
		{Text: "You receive a ₱20,000 bonus. Where does most of it go?", Options: options4(
			"Into my savings account", "Into a time deposit or Pag-IBIG MP2",
			"Half into a fund, half into savings", "Into stocks or an equity fund")},
		{Text: "How would you feel if your investments swung up and down by 20% in a year?", Options: options4(
			"I would lose sleep", "Uneasy, but I would live with small swings",
			"Fine, if it grows over time", "Excited: that is where the opportunities are")},
		{Text: "Which sentence sounds most like you?", Options: options4(
			"I sleep best with cash I can reach", "I like a plan and I stick to it",
			"I balance safety and growth", "I enjoy taking calculated risks")},
	},
	Personas: []Persona{
		{Code: PersonaGuardian, Name: "The Guardian",
			Description: "Safety comes first for you: you want your money there when you need it. That is a strong base, but money that never grows loses buying power to inflation.",
			NextSteps: []string{"Build an emergency fund of three to six months of expenses in a savings account.",
				"Move money you will not touch for a year into a time deposit for a better fixed rate.",
				"Learn how inflation eats into cash, then take a first small step beyond savings."}},
		{Code: PersonaBuilder, Name: "The Steady Builder",
			Description: "You like predictable progress and a clear plan. Fixed-income savings suit you, and a small growth portion can help your money beat inflation.",
			NextSteps: []string{"Consider Pag-IBIG MP2 for five-year savings with tax-free dividends.",
				"Ladder time deposits so that one matures every few months.",
				"Look at a money market or bond UITF for part of your savings."}},
		{Code: PersonaGrower, Name: "The Balanced Grower",
			Description: "You accept ups and downs for growth over the years and keep a cushion of safety. A mix of fixed income and equities fits your goals.",
			NextSteps: []string{"Split long-term money between a balanced fund and an equity fund.",
				"Invest a fixed amount every month (peso-cost averaging) instead of timing the market.",
				"Review your mix once a year and rebalance."}},
		{Code: PersonaExplorer, Name: "The Bold Explorer",
			Description: "You are comfortable with risk and aim for the highest long-term returns. Keep your emergency fund separate and spread your bets.",
			NextSteps: []string{"Open an account with a broker of the Philippine Stock Exchange and research companies before buying.",
				"Diversify across sectors, or start with a PSE index fund.",
				"Never invest money you will need within five years in stocks alone, and stay clear of 'guaranteed' high returns."}},
	},
}

// scored builds a question of a scored quiz: its text, the index of the right option among
// options, and the explanation shown after the answer.
func scored(text string, answer int, explanation string, options ...string) QuizQuestion {
	q := QuizQuestion{Text: text, Answer: answer, Explanation: explanation, Options: make([]QuizOption, len(options))}
	for i, o := range options {
		q.Options[i] = QuizOption{Text: o}
	}
	return q
}

var powerQuiz = Quiz{
	Slug:   QuizPower,
	Title:  "Investment power quiz",
	Intro:  "Ten questions on saving and investing in the Philippines. Each right answer is explained after you submit.",
	Scored: true,
	Questions: []QuizQuestion{
		scored("How much do financial planners usually suggest keeping in an emergency fund?", 1,
			"Three to six months of expenses, kept somewhere safe and easy to withdraw such as a savings account, covers a job loss or a hospital bill without selling investments at a bad time.",
			"One week of expenses", "Three to six months of living expenses", "Two years of salary, invested in stocks"),
		scored("Your savings earn 1% a year while prices rise 4% a year. What happens to what your money can buy?", 2,
			"Your real return is roughly the interest rate minus inflation: 1% − 4% ≈ −3%. The peso amount grows, but it buys less each year.",
			"It grows by 1% a year", "It stays the same", "It shrinks by about 3% a year"),
		scored("What is true of a peso time deposit in a bank?", 1,
			"A time deposit locks your money for a term at a fixed rate; breaking it early usually means a lower rate or a penalty. Like other bank deposits it is insured by PDIC up to ₱1,000,000 per depositor per bank.",
			"Its rate changes every day with the stock market", "It pays a fixed rate for a fixed term, and withdrawing early can cost you interest", "It cannot be insured"),
		scored("What is Pag-IBIG Fund's MP2?", 1,
			"Modified Pag-IBIG 2 (MP2) is a voluntary savings program with a five-year maturity. Its dividends are tax-free and, like Pag-IBIG's regular savings, guaranteed by the national government.",
			"A housing loan", "A voluntary five-year savings program for Pag-IBIG members with tax-free dividends", "A stock traded on the PSE"),
		scored("What is a UITF (Unit Investment Trust Fund)?", 0,
			"A UITF pools investors' money into bonds, stocks or money market instruments. Its NAVPU goes up and down; it is not a deposit, so it is not insured by PDIC and returns are not guaranteed.",
			"A pooled fund managed by a bank's trust department, whose value per unit (NAVPU) moves with the market", "A deposit insured by PDIC with a guaranteed return", "A government bond with a fixed coupon"),
		scored("You buy shares of a company listed on the Philippine Stock Exchange. What do you own?", 1,
			"A share is part-ownership of the company. You can earn from dividends and from a higher price when you sell, but the price can also fall below what you paid.",
			"A loan to the company that pays fixed interest", "A small part of the company: you may receive dividends, and the share price can rise or fall", "A deposit the PSE guarantees"),
		scored("You invest ₱10,000 at 5% a year, compounded yearly. About how much do you have after two years?", 2,
			"Compounding earns interest on interest: ₱10,000 × 1.05 = ₱10,500 after one year, then ₱10,500 × 1.05 = ₱11,025 after two.",
			"₱10,500", "₱11,000", "₱11,025"),
		scored("An 'investment' promises a guaranteed 10% a month and pays extra for every friend you recruit. What is it most likely?", 1,
			"Guaranteed high returns and rewards for recruiting are the marks of a Ponzi or pyramid scheme: early members are paid with later members' money until it collapses. Check the SEC's investor advisories before you put in a peso.",
			"A high-yield savings account", "A Ponzi or pyramid scheme", "A normal stock market return"),
		scored("A company says it is 'SEC registered'. Is that enough to let it take your investment?", 1,
			"A certificate of registration only means the company exists. To solicit investments it needs a secondary license (or registered securities); the SEC warns often about registered companies without one.",
			"Yes, any registered company may sell investments", "No: it also needs a secondary license from the SEC to offer or sell securities", "Only if it has a Facebook page"),
		scored("Why spread your money across different investments?", 0,
			"Diversification means one loss is only part of your savings. It lowers risk but does not guarantee a profit.",
			"To lower the risk that one bad investment hurts all your savings", "To pay more fees", "Because it guarantees a profit"),
	},
}
