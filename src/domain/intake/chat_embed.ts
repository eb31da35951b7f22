/**
 * A chat embed as the chat reader keeps it (already cut to the platform's limits): the shape an
 * embed sample is stored in too. Reading a post's body is the chat reader's
 * (`intake/chat/body.ts`).
 */

export interface ChatField {
  name?: string;
  value?: string;
}

export interface ChatEmbed {
  title?: string;
  description?: string;
  url?: string;
  author?: { name?: string; url?: string };
  footer?: { text?: string };
  thumbnail?: { url?: string };
  image?: { url?: string };
  fields: ChatField[];
}
