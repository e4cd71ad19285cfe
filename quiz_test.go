package palaro

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQuiz_Grade(t *testing.T) {
	power, ok := FindQuiz(QuizPower)
	require.True(t, ok)
	require.Len(t, power.Questions, 10)
	persona, ok := FindQuiz(QuizPersona)
	require.True(t, ok)
	require.True(t, len(persona.Questions) >= 6 && len(persona.Questions) <= 8)
	require.Len(t, persona.Personas, 4)
	t.Run("OK scored", func(t *testing.T) {
		answers := make([]int, len(power.Questions))
		for i, q := range power.Questions {
			answers[i] = q.Answer
			require.NotEmpty(t, q.Explanation)
		}
		answers[0] = (answers[0] + 1) % len(power.Questions[0].Options)
		res, err := power.Grade(answers)
		require.NoError(t, err)
		require.Equal(t, 9, res.Score)
		require.False(t, res.Correct[0])
		require.Equal(t, "Score 9/10", res.Remarks)
	})
	t.Run("OK persona by most answers", func(t *testing.T) {
		answers := []int{3, 3, 3, 3, 0, 1, 2}
		res, err := persona.Grade(answers)
		require.NoError(t, err)
		require.Equal(t, PersonaExplorer, res.Persona.Code)
		require.Equal(t, "Persona: The Bold Explorer", res.Remarks)
	})
	t.Run("OK persona tie goes to the more careful", func(t *testing.T) {
		res, err := persona.Grade([]int{1, 1, 2, 2, 3, 0, 0})
		require.NoError(t, err)
		require.Equal(t, PersonaGuardian, res.Persona.Code)
	})
	t.Run("ErrIncomplete", func(t *testing.T) {
		_, err := power.Grade([]int{0, 1})
		require.Equal(t, MsgQuizIncomplete, ErrorMessage(err))
		answers := make([]int, 10)
		answers[4] = -1
		_, err = power.Grade(answers)
		require.Equal(t, EINVALID, ErrorCode(err))
	})
}
