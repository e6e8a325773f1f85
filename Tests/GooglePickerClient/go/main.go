// A Google Photos Picker API client in Go (standard library only), written from Google's public
// reference, run against this server: only the base URL and the bearer token differ.
//
// It creates a session (pickingConfig.maxItemCount "3"), prints "pickerUri: <uri>" for the person
// (scripts/google-client.sh has Chromium pick there), polls sessions.get at pollInterval (parsed
// with time.ParseDuration, as Go clients do) until mediaItemsSet or timeoutIn, lists mediaItems
// with pageSize 2, fetches each baseUrl with =wW-hH, =wW-hH-c and =d or =dv (decoding the JPEGs
// with image/jpeg, checking a Range of the video), checks Google's error statuses, and deletes
// the session.
//
//	PHOTOS_PICKER_TOKEN=KEY go run main.go -base http://127.0.0.1:PORT/v1
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image/jpeg"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

type PickingSession struct {
	ID            string `json:"id"`
	PickerURI     string `json:"pickerUri"`
	PollingConfig struct {
		PollInterval string `json:"pollInterval"`
		TimeoutIn    string `json:"timeoutIn"`
	} `json:"pollingConfig"`
	ExpireTime    time.Time `json:"expireTime"`
	MediaItemsSet bool      `json:"mediaItemsSet"`
	PickingConfig struct {
		MaxItemCount string `json:"maxItemCount"`
	} `json:"pickingConfig"`
}

type PickedMediaItem struct {
	ID         string    `json:"id"`
	CreateTime time.Time `json:"createTime"`
	Type       string    `json:"type"`
	MediaFile  struct {
		BaseURL           string `json:"baseUrl"`
		MimeType          string `json:"mimeType"`
		Filename          string `json:"filename"`
		MediaFileMetadata struct {
			Width         int `json:"width"`
			Height        int `json:"height"`
			PhotoMetadata *struct {
				FocalLength     *float64 `json:"focalLength"`
				ApertureFNumber *float64 `json:"apertureFNumber"`
				IsoEquivalent   *int     `json:"isoEquivalent"`
				ExposureTime    *string  `json:"exposureTime"`
			} `json:"photoMetadata"`
			VideoMetadata *struct {
				Fps              float64 `json:"fps"`
				ProcessingStatus string  `json:"processingStatus"`
			} `json:"videoMetadata"`
		} `json:"mediaFileMetadata"`
	} `json:"mediaFile"`
}

type listResponse struct {
	MediaItems    []PickedMediaItem `json:"mediaItems"`
	NextPageToken string            `json:"nextPageToken"`
}

type apiError struct {
	HTTP   int
	Code   int    `json:"code"`
	Msg    string `json:"message"`
	Status string `json:"status"`
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.HTTP, e.Status, e.Msg) }

type client struct {
	base, token string
}

func (c client) do(method, rawURL string, body any, header map[string]string) (*http.Response, []byte, error) {
	var reader io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		reader = bytes.NewReader(data)
	}
	request, err := http.NewRequest(method, rawURL, reader)
	if err != nil {
		return nil, nil, err
	}
	if c.token != "" {
		request.Header.Set("Authorization", "Bearer "+c.token)
	}
	if body != nil {
		request.Header.Set("Content-Type", "application/json")
	}
	for name, value := range header {
		request.Header.Set(name, value)
	}
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return nil, nil, err
	}
	defer response.Body.Close()
	data, err := io.ReadAll(response.Body)
	if err != nil {
		return nil, nil, err
	}
	if response.StatusCode >= 300 {
		var wrapper struct {
			Error apiError `json:"error"`
		}
		if json.Unmarshal(data, &wrapper) != nil {
			return response, data, &apiError{HTTP: response.StatusCode, Msg: string(data)}
		}
		wrapper.Error.HTTP = response.StatusCode
		return response, data, &wrapper.Error
	}
	return response, data, nil
}

func (c client) json(method, path string, body any, into any) error {
	_, data, err := c.do(method, c.base+path, body, nil)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

func fail(format string, arguments ...any) {
	fmt.Fprintf(os.Stderr, "go-client: FAILED: "+format+"\n", arguments...)
	os.Exit(1)
}

func step(text string) { fmt.Println("go-client: " + text) }

func expectError(err error, code int, status string) {
	e, ok := err.(*apiError)
	if !ok || e.HTTP != code || e.Code != code || e.Status != status || e.Msg == "" {
		fail("expected %d %s, got %v", code, status, err)
	}
}

func jpegSize(data []byte, what string) (int, int) {
	config, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		fail("%s is not a JPEG: %v", what, err)
	}
	return config.Width, config.Height
}

func main() {
	base := flag.String("base", "https://photospicker.googleapis.com/v1", "the API's base URL")
	bearer := flag.String("token", os.Getenv("PHOTOS_PICKER_TOKEN"), "the bearer token (default: $PHOTOS_PICKER_TOKEN)")
	flag.Parse()
	picker := client{strings.TrimRight(*base, "/"), *bearer}

	step("errors: 401 UNAUTHENTICATED without a token, 400 INVALID_ARGUMENT for a bad body, 404 NOT_FOUND")
	var session PickingSession
	expectError(client{picker.base, ""}.json("POST", "/sessions", map[string]any{}, &session), 401, "UNAUTHENTICATED")
	expectError(picker.json("POST", "/sessions", map[string]any{"pickingConfig": map[string]any{"maxItemCount": "lots"}}, &session), 400, "INVALID_ARGUMENT")
	expectError(picker.json("GET", "/sessions/no-such-session", nil, &session), 404, "NOT_FOUND")

	step("sessions.create with pickingConfig.maxItemCount \"3\"")
	if err := picker.json("POST", "/sessions", map[string]any{"pickingConfig": map[string]any{"maxItemCount": "3"}}, &session); err != nil {
		fail("sessions.create: %v", err)
	}
	interval, err1 := time.ParseDuration(session.PollingConfig.PollInterval)
	timeout, err2 := time.ParseDuration(session.PollingConfig.TimeoutIn)
	if err1 != nil || err2 != nil || interval <= 0 || timeout <= 0 || session.PickingConfig.MaxItemCount != "3" || !session.ExpireTime.After(time.Now()) {
		fail("unexpected session %+v (%v, %v)", session, err1, err2)
	}
	var page listResponse
	expectError(picker.json("GET", "/mediaItems?sessionId="+url.QueryEscape(session.ID), nil, &page), 400, "FAILED_PRECONDITION")

	fmt.Printf("pickerUri: %s\n", session.PickerURI)
	step("sessions.get at pollInterval until mediaItemsSet")
	deadline := time.Now().Add(timeout)
	for !session.MediaItemsSet {
		if time.Now().After(deadline) {
			fail("the user did not pick before timeoutIn")
		}
		time.Sleep(interval)
		if err := picker.json("GET", "/sessions/"+session.ID, nil, &session); err != nil {
			fail("sessions.get: %v", err)
		}
		interval, _ = time.ParseDuration(session.PollingConfig.PollInterval)
	}

	step("mediaItems.list with pageSize 2")
	var items []PickedMediaItem
	pages, token := 0, ""
	for {
		query := url.Values{"sessionId": {session.ID}, "pageSize": {"2"}}
		if token != "" {
			query.Set("pageToken", token)
		}
		page = listResponse{}
		if err := picker.json("GET", "/mediaItems?"+query.Encode(), nil, &page); err != nil {
			fail("mediaItems.list: %v", err)
		}
		items, pages, token = append(items, page.MediaItems...), pages+1, page.NextPageToken
		if token == "" {
			break
		}
	}
	if len(items) != 3 || pages != 2 {
		fail("listed %d items in %d pages", len(items), pages)
	}

	for _, item := range items {
		file := item.MediaFile
		step(fmt.Sprintf("%s %s (%dx%d): baseUrl parameters", item.Type, file.Filename, file.MediaFileMetadata.Width, file.MediaFileMetadata.Height))
		if item.CreateTime.IsZero() {
			fail("%s has no createTime", item.ID)
		}
		_, data, err := picker.do("GET", file.BaseURL+"=w90-h40-c", nil, nil)
		if w, h := jpegSize(data, "=w90-h40-c"); err != nil || w != 90 || h != 40 {
			fail("%s =w90-h40-c is %dx%d (%v)", file.Filename, w, h, err)
		}
		_, data, err = picker.do("GET", file.BaseURL+"=w100-h100", nil, nil)
		if w, h := jpegSize(data, "=w100-h100"); err != nil || (w != 100 && h != 100) || w > 100 || h > 100 {
			fail("%s =w100-h100 is %dx%d (%v)", file.Filename, w, h, err)
		}
		switch item.Type {
		case "PHOTO":
			_, data, err = picker.do("GET", file.BaseURL+"=d", nil, nil)
			w, h := jpegSize(data, "=d")
			m := file.MediaFileMetadata
			if err != nil || !((w == m.Width && h == m.Height) || (w == m.Height && h == m.Width)) {
				fail("%s =d is %dx%d, the item %dx%d (%v)", file.Filename, w, h, m.Width, m.Height, err)
			}
			if m.PhotoMetadata == nil || m.VideoMetadata != nil {
				fail("%s has no photoMetadata, or has videoMetadata", file.Filename)
			}
			if exposure := m.PhotoMetadata.ExposureTime; exposure != nil {
				if d, err := time.ParseDuration(*exposure); err != nil || d <= 0 {
					fail("%s exposureTime %q is not a Duration (%v)", file.Filename, *exposure, err)
				}
			}
		case "VIDEO":
			if v := file.MediaFileMetadata.VideoMetadata; v == nil || v.ProcessingStatus != "READY" || v.Fps <= 0 {
				fail("%s videoMetadata is %+v", file.Filename, v)
			}
			_, whole, err := picker.do("GET", file.BaseURL+"=dv", nil, nil)
			if err != nil || len(whole) < 1000 || string(whole[4:8]) != "ftyp" {
				fail("%s =dv is not the video (%v)", file.Filename, err)
			}
			response, part, err := picker.do("GET", file.BaseURL+"=dv", nil, map[string]string{"Range": "bytes=10-19"})
			if err != nil || response.StatusCode != http.StatusPartialContent || !bytes.Equal(part, whole[10:20]) {
				fail("%s =dv with Range bytes=10-19 answered %v", file.Filename, err)
			}
		default:
			fail("%s has type %q", item.ID, item.Type)
		}
	}

	step("sessions.delete: {}, and the baseUrls stop")
	var empty map[string]any
	if err := picker.json("DELETE", "/sessions/"+session.ID, nil, &empty); err != nil || len(empty) != 0 {
		fail("sessions.delete: %v %v", empty, err)
	}
	_, _, err := picker.do("GET", items[0].MediaFile.BaseURL+"=w64-h64", nil, nil)
	expectError(err, 404, "NOT_FOUND")
	step("passed")
}
