package handlers

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"
	"golang.org/x/image/draw"

	"palaro"
)

// coverUploadPath is the route of cover uploads, which take a picture-sized body.
const coverUploadPath = "/organizer/events/:code/cover"

// coverImages crops a picture to 16:9 around its centre and encodes it as JPEG at every cover width.
func coverImages(img image.Image) (map[int][]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	crop := b
	if w*9 > h*16 { // wider than 16:9: cut the sides
		cw := h * 16 / 9
		crop = image.Rect(b.Min.X+(w-cw)/2, b.Min.Y, b.Min.X+(w-cw)/2+cw, b.Max.Y)
	} else { // taller: cut top and bottom
		ch := w * 9 / 16
		crop = image.Rect(b.Min.X, b.Min.Y+(h-ch)/2, b.Max.X, b.Min.Y+(h-ch)/2+ch)
	}
	out := map[int][]byte{}
	for _, width := range palaro.CoverWidths {
		dst := image.NewRGBA(image.Rect(0, 0, width, width*9/16))
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, crop, draw.Src, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 82}); err != nil {
			return nil, err
		}
		out[width] = buf.Bytes()
	}
	return out, nil
}

func (s *Server) orgUploadCover(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	f, _, err := c.Request().FormFile("cover")
	if err != nil {
		return s.renderOrgEvent(c, caller, ev, "Choose a JPEG, PNG or WebP picture.", http.StatusUnprocessableEntity)
	}
	defer f.Close()
	img, _, release, err := decodePicture(f)
	var pe *pictureError
	if errors.As(err, &pe) {
		return s.renderOrgEvent(c, caller, ev, pe.msg, pe.status)
	} else if err != nil {
		return err
	}
	images, err := coverImages(img)
	release()
	if err != nil {
		return err
	}
	if _, err := s.services.Organizers.SetEventCover(c.Request().Context(), ev.ID, caller.Actor(), images); err != nil {
		return err
	}
	s.eventsChanged()
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"?notice=cover")
}

// imageNameRE is the random name of an uploaded cover or prize picture.
var imageNameRE = regexp.MustCompile(`^[a-z0-9]{16,64}$`)

// eventImage serves a cover image; its URL names its version, so it is cached for a year.
func (s *Server) eventImage(c *echo.Context) error {
	file, ok := strings.CutSuffix(c.Param("file"), ".jpg")
	name, w, ok2 := strings.Cut(file, "-")
	width, err := strconv.Atoi(w)
	if !ok || !ok2 || err != nil || !imageNameRE.MatchString(name) {
		return errPageNotFound
	}
	data, err := s.services.Organizers.FindEventImage(c.Request().Context(), name, width)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	return c.Blob(http.StatusOK, "image/jpeg", data)
}
