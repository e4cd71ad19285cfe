package handlers

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// pngHeader is a PNG file whose header claims w×h 8-bit grey pixels, followed by a tiny,
// all-zero first row: what a small file of a huge all-zero image starts like.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(kind)
		b.Write(data)
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		_ = binary.Write(&b, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}

func smallPNG(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))))
	return b.Bytes()
}

func TestProfilePicture_DimensionsCheckedBeforeDecoding(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.1.1")
	c.signUp("dims@example.ph", "09241230001")
	for _, tc := range []struct {
		name string
		w, h uint32
	}{
		{"ErrReported6300Square", 6300, 6300},
		{"ErrWiderThan4096", 4097, 10},
		{"ErrTallerThan4096", 10, 4097},
		{"ErrAbove16Megapixels", 4096, 3907}, // 16,003,072 pixels
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.upload("bomb.png", pngHeader(tc.w, tc.h))
			require.Equal(t, http.StatusUnprocessableEntity, r.Code)
			require.Contains(t, r.body, "too many pixels")
		})
	}
	t.Run("OK4096Wide", func(t *testing.T) { // the control: the largest side is accepted
		require.Equal(t, http.StatusSeeOther, c.upload("wide.png", smallPNG(t, 4096, 8)).Code)
	})
}

func TestProfilePicture_DecodeMemoryBudget(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.1.2")
	c.signUp("budget@example.ph", "09241230002")
	require.True(t, pictureDecodes.TryAcquire(pictureDecodeBudget-1000), "other decodes hold the budget")
	r := c.upload("a.png", smallPNG(t, 40, 40)) // 6,400 bytes decoded: more than what is left
	pictureDecodes.Release(pictureDecodeBudget - 1000)
	require.Equal(t, http.StatusServiceUnavailable, r.Code)
	require.Contains(t, r.body, "busy processing pictures")
	require.Equal(t, http.StatusSeeOther, c.upload("a.png", smallPNG(t, 40, 40)).Code, "once freed, the same picture passes")
}

func TestProfilePicture_OneUploadAtATimePerAccount(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.1.3")
	c.signUp("once@example.ph", "09241230003")
	done, ok := ts.pictureUploads.begin(1) // account 1's first upload is still running
	require.True(t, ok)
	r := c.upload("a.png", smallPNG(t, 20, 20))
	require.Equal(t, http.StatusTooManyRequests, r.Code)
	require.Contains(t, r.body, "still being processed")

	other := ts.client(t, "10.0.1.4")
	other.signUp("other@example.ph", "09241230004")
	require.Equal(t, http.StatusSeeOther, other.upload("a.png", smallPNG(t, 20, 20)).Code, "another account is not held up")
	done()
	require.Equal(t, http.StatusSeeOther, c.upload("a.png", smallPNG(t, 20, 20)).Code)
}

func TestProfilePicture_RateLimited(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.1.5")
	c.signUp("rate@example.ph", "09241230005")
	pic := smallPNG(t, 20, 20)
	for i := range limitPictureAccount.Burst {
		require.Equal(t, http.StatusSeeOther, c.upload("a.png", pic).Code, "upload %d", i+1)
	}
	r := c.upload("a.png", pic)
	require.Equal(t, http.StatusTooManyRequests, r.Code)
	require.Contains(t, r.body, MsgTooManyRequests)
}
