package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"palaro"
)

// newsCommand runs the operator's news commands:
//
//	news publish FILE.json       create or update (by slug) an article: {"slug", "title", "summary", "body", "coverUrl", "eventCodes", "author"}
//	pnk set home|promo FILE.json replace the partner bank's page: {"bankName", "primaryColor", "accentColor", "heroTitle", "heroText", "blocks": [...]}
func newsCommand(ctx context.Context, w io.Writer, news palaro.NewsService, cmd string, args []string) error {
	read := func(path string, v any) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return json.Unmarshal(b, v)
	}
	switch {
	case cmd == "news" && len(args) == 2 && args[0] == "publish":
		var a palaro.Article
		if err := read(args[1], &a); err != nil {
			return err
		}
		if old, err := news.FindAnyArticle(ctx, a.Slug); err == nil {
			a.OrganizationID = old.OrganizationID // an organization's article stays theirs
		}
		saved, err := news.SaveArticle(ctx, a)
		if err != nil {
			return fmt.Errorf("%s %v", palaro.ErrorMessage(err), fieldsOf(err))
		}
		fmt.Fprintf(w, "published /news/%s\n", termSafe(saved.Slug))
		return nil
	case cmd == "pnk" && len(args) == 3 && args[0] == "set" && (args[1] == "home" || args[1] == "promo"):
		var p palaro.PartnerPage
		if err := read(args[2], &p); err != nil {
			return err
		}
		if err := news.SavePartnerPage(ctx, args[1], p); err != nil {
			return err
		}
		fmt.Fprintf(w, "partner page %s saved\n", args[1])
		return nil
	}
	return fmt.Errorf("usage: palaro news publish FILE.json | palaro pnk set home|promo FILE.json")
}

// operatorsCommand lists the operators, or grants or revokes the role:
//
//	operators                 list the operators' e-mail addresses
//	operators grant EMAIL     the account may use the /operator console (edit any news article, /pnk)
//	operators revoke EMAIL    it may no longer
func operatorsCommand(ctx context.Context, w io.Writer, ops palaro.Operators, args []string) error {
	switch {
	case len(args) == 0:
		list, err := ops.ListOperators(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(w, "No operators.")
		}
		for _, e := range list {
			fmt.Fprintln(w, termSafe(e))
		}
		return nil
	case len(args) == 2 && (args[0] == "grant" || args[0] == "revoke"):
		if err := ops.SetOperator(ctx, args[1], args[0] == "grant"); err != nil {
			return err
		}
		if args[0] == "grant" {
			fmt.Fprintf(w, "%s is an operator: /operator after signing in.\n", termSafe(args[1]))
		} else {
			fmt.Fprintf(w, "%s is no longer an operator.\n", termSafe(args[1]))
		}
		return nil
	}
	return fmt.Errorf("usage: palaro operators [grant|revoke EMAIL]")
}

// fieldsOf returns the field messages of a validation error.
func fieldsOf(err error) map[string]string {
	if e, ok := err.(*palaro.Error); ok {
		return e.Fields
	}
	return nil
}
