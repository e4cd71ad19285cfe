package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"palaro"
)

// organizersCommand runs `palaro organizers [--pending]` and `palaro organizers approve EMAIL`;
// both name the organizations (and the operator) whose names look like each one's.
func organizersCommand(ctx context.Context, w io.Writer, svc palaro.OrganizerService, args []string) error {
	if len(args) > 0 && args[0] == "approve" {
		if len(args) != 2 {
			return errors.New("usage: palaro organizers approve EMAIL")
		}
		orgs, err := svc.ApproveOrganization(ctx, args[1])
		if err != nil {
			return err
		}
		all, err := svc.ListOrganizations(ctx, false)
		if err != nil {
			return err
		}
		for _, o := range orgs {
			fmt.Fprintf(w, "Approved %s (#%d); %s is told by e-mail.\n", termSafe(o.Name), o.ID, termSafe(o.OwnerEmail))
			if like := palaro.LookAlikes(o, all); len(like) > 0 {
				fmt.Fprintf(w, "  Its name looks like %s: check that it is not posing as them.\n", termSafe(strings.Join(like, ", ")))
			}
		}
		return nil
	}
	fs := flag.NewFlagSet("organizers", flag.ContinueOnError)
	pending := fs.Bool("pending", false, "only organizations waiting for approval")
	if err := fs.Parse(args); err != nil {
		return err
	}
	orgs, err := svc.ListOrganizations(ctx, *pending)
	if err != nil {
		return err
	}
	if len(orgs) == 0 {
		fmt.Fprintln(w, "No organizations.")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	all := orgs
	if *pending {
		if all, err = svc.ListOrganizations(ctx, false); err != nil {
			return err
		}
	}
	fmt.Fprintln(tw, "ID\tSTATUS\tORGANIZATION\tOWNER\tREGISTERED\tLOOKS LIKE")
	for _, o := range orgs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", o.ID, termSafe(o.Status), termSafe(o.Name), termSafe(o.OwnerEmail),
			o.CreatedAt.Format(time.RFC3339), termSafe(strings.Join(palaro.LookAlikes(o, all), ", ")))
	}
	return tw.Flush()
}

// tokensCommand runs `palaro tokens create --organizer EMAIL [--role manager|gate] [--organization ID]`:
// it prints the new token once.
func tokensCommand(ctx context.Context, w io.Writer, svc palaro.OrganizerService, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: palaro tokens create --organizer EMAIL [--role manager|gate] [--organization ID] [--name NAME]")
	}
	fs := flag.NewFlagSet("tokens create", flag.ContinueOnError)
	email := fs.String("organizer", "", "e-mail of the organization's owner")
	role := fs.String("role", palaro.MemberManager, "manager or gate")
	orgID := fs.Int64("organization", 0, "organization id, when the owner has several")
	name := fs.String("name", "created by the operator", "what the token is for")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	orgs, err := svc.ListOrganizations(ctx, false)
	if err != nil {
		return err
	}
	var owned []palaro.Organization
	for _, o := range orgs {
		if strings.EqualFold(o.OwnerEmail, strings.TrimSpace(*email)) && o.Status == palaro.OrganizationApproved &&
			(*orgID == 0 || o.ID == *orgID) {
			owned = append(owned, o)
		}
	}
	switch {
	case len(owned) == 0:
		return fmt.Errorf("%s owns no approved organization%s", termSafe(*email), map[bool]string{true: " with that id", false: ""}[*orgID != 0])
	case len(owned) > 1:
		var ids []string
		for _, o := range owned {
			ids = append(ids, fmt.Sprintf("%d (%s)", o.ID, termSafe(o.Name)))
		}
		return fmt.Errorf("%s owns several organizations; choose one with --organization: %s", termSafe(*email), strings.Join(ids, ", "))
	}
	secret, tok, err := svc.CreateToken(ctx, owned[0].ID, *role, *name, "operator", 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Token #%d for %s, role %s (shown only now):\n%s\n", tok.ID, termSafe(tok.OrganizationName), termSafe(tok.Role), secret)
	return nil
}
