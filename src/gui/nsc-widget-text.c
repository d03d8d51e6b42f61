/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-widget-text.h"

static void
collect (GtkWidget *widget,
         GString   *out)
{
  GtkWidget *parent = gtk_widget_get_parent (widget);

  if (!gtk_widget_get_visible (widget) || GTK_IS_POPOVER (widget))
    return;
  /* A stack's other pages are not child-visible; a collapsed revealer's child
   * neither, but it is one click away. */
  if (!gtk_widget_get_child_visible (widget) && !(parent && GTK_IS_REVEALER (parent)))
    return;
  /* The page a stack shows, also while it still animates from the last one. */
  if (parent && GTK_IS_STACK (parent) && gtk_stack_get_visible_child (GTK_STACK (parent)) != widget)
    return;
  if (GTK_IS_LABEL (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      if (text != NULL && *text != '\0')
        {
          g_autofree char *line = g_strdup (text);

          g_strdelimit (line, "\n", ' ');
          g_string_append (out, line);
          g_string_append_c (out, '\n');
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    collect (child, out);
}

char *
nsc_widget_get_visible_text (GtkWidget *root)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (GTK_IS_WIDGET (root), NULL);

  collect (root, out);
  return g_string_free (out, FALSE);
}
